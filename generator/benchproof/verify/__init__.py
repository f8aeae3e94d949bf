"""``benchproof verify`` and ``benchproof sign``: does a published site (or its zip alone)
follow from the records it ships, and who signed them?"""

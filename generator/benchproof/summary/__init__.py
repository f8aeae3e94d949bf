"""``benchproof summary``: one report in Markdown, for a decision document or a pull request."""

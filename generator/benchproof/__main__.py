from benchproof.cli import main

main()

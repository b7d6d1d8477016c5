from kubik.cli import main

main()

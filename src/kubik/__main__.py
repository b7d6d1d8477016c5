from kubik.cli.launch import main

main()

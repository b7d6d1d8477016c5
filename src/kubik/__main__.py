from kubik.launch import main

main()

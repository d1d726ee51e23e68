from mol_local.cli import main

main()

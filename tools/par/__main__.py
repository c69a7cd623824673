import sys

from tools.par import main

sys.exit(main(sys.argv[1:]))

import sys

from accelerate import Accelerator

accelerator = Accelerator()
model_name, data_dir, out_file = sys.argv[1:4]

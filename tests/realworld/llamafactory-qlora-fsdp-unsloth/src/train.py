from llamafactory.train.tuner import run_exp

run_exp()

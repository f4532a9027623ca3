from transformers import HfArgumentParser, Seq2SeqTrainingArguments

(training_args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()

/* The libyaml anchor of the benchmark: reads every event of each YAML file named in a list (the layer launchlint's
 * YAML reader builds its tree on) and does nothing else.
 *   bench_yaml_events LIST   LIST holds one path per line ("-": standard input); files not ending in .yaml/.yml
 *                            are skipped
 * Prints files, bytes and events; a file with a syntax error counts the events up to it. */
#include <stdio.h>
#include <string.h>
#include <yaml.h>

static int is_yaml(const char *p) {
  size_t n = strlen(p);
  return (n >= 5 && strcmp(p + n - 5, ".yaml") == 0) || (n >= 4 && strcmp(p + n - 4, ".yml") == 0);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s LIST\n", argv[0]);
    return 2;
  }
  FILE *list = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "r");
  if (!list) {
    perror(argv[1]);
    return 2;
  }
  char line[4096];
  unsigned long files = 0, bytes = 0, events = 0, errors = 0;
  while (fgets(line, sizeof line, list)) {
    line[strcspn(line, "\n")] = '\0';
    if (!is_yaml(line)) continue;
    FILE *f = fopen(line, "rb");
    if (!f) {
      perror(line);
      continue;
    }
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    for (;;) {
      yaml_event_t event;
      if (!yaml_parser_parse(&parser, &event)) {
        ++errors;
        break;
      }
      const int done = event.type == YAML_STREAM_END_EVENT;
      yaml_event_delete(&event);
      ++events;
      if (done) break;
    }
    bytes += (unsigned long)ftell(f);
    yaml_parser_delete(&parser);
    fclose(f);
    ++files;
  }
  printf("libyaml: %lu files, %lu bytes, %lu events, %lu with errors\n", files, bytes, events, errors);
  return 0;
}

/* The bare tree-sitter anchor of the benchmark: parses each file named in a list with the same pinned runtime and
 * grammars launchlint links (grammars/manifest.txt), and does nothing else. Python files (.py) with
 * tree-sitter-python, shell files (.sh .bash .slurm .sbatch, Makefiles) with tree-sitter-bash; others skipped.
 *   bench_ts_parse LIST   LIST holds one path per line ("-": standard input)
 * Prints files, bytes and nodes parsed (the node count comes from the root, so no walk is done). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_bash(void);

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static const TSLanguage *language_of(const char *path) {
  const char *name = base_name(path);
  if (ends_with(name, ".py")) return tree_sitter_python();
  if (ends_with(name, ".sh") || ends_with(name, ".bash") || ends_with(name, ".slurm") || ends_with(name, ".sbatch") ||
      ends_with(name, ".mk") || strcmp(name, "Makefile") == 0 || strcmp(name, "makefile") == 0 ||
      strcmp(name, "GNUmakefile") == 0)
    return tree_sitter_bash();
  return NULL;
}

static char *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (n == cap) buf = realloc(buf, cap *= 2);
    size_t got = fread(buf + n, 1, cap - n, f);
    if (got == 0) break;
    n += got;
  }
  fclose(f);
  *size = n;
  return buf;
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
  TSParser *parser = ts_parser_new();
  char line[4096];
  unsigned long files = 0, bytes = 0, nodes = 0;
  while (fgets(line, sizeof line, list)) {
    line[strcspn(line, "\n")] = '\0';
    const TSLanguage *lang = language_of(line);
    if (!lang) continue;
    size_t size = 0;
    char *text = read_all(line, &size);
    if (!text) {
      perror(line);
      continue;
    }
    ts_parser_set_language(parser, lang);
    TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)size);
    if (tree) {
      nodes += ts_node_descendant_count(ts_tree_root_node(tree));
      ts_tree_delete(tree);
    }
    free(text);
    ++files;
    bytes += size;
  }
  ts_parser_delete(parser);
  printf("tree-sitter: %lu files, %lu bytes, %lu nodes\n", files, bytes, nodes);
  return 0;
}

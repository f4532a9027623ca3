/* The fast visible-node walk (tree_walk.h). Each step mirrors tree_cursor.c of the pinned runtime: a child is
 * visible when its subtree is or when its parent's production aliases it; a hidden child with visible children
 * is entered without counting as a level; positions advance by each child's size and the next child's padding. */
#include "lint/parse/tree_walk.h"

#include <stdlib.h>

#include "language.h"
#include "length.h"
#include "subtree.h"
#include "tree.h"

/* Iterates the children of one node: a visible node the walk descended into, or a hidden one it passes through. */
typedef struct {
  const Subtree *children;
  const TSSymbol *alias_sequence;
  Length position; /* where the next child starts (after its padding) */
  uint32_t child_index;
  uint32_t child_count;
  uint32_t structural_child_index;
  uint32_t depth; /* the visible depth of the children */
  /* The node itself, as a child of the frame below, for fields. */
  uint32_t own_structural_child_index;
  uint16_t production_id;
  bool own_visible;
  bool own_extra;
} Frame;

struct LaunchlintTreeWalk {
  const TSTree *tree;
  Frame *frames;
  uint32_t size;
  uint32_t capacity;
  bool started;
  const bool *keep; /* by public symbol; null: every node is returned */
  uint32_t keep_count;
  const uint8_t *min_descendants; /* by public symbol; null: every node is entered */
  uint32_t min_count;
  /* The node returned last. */
  const Subtree *current;
  Length current_position;
  TSSymbol current_alias;
  uint32_t current_depth;
  uint32_t current_structural_child_index;
  bool current_extra;
};

LaunchlintTreeWalk *launchlint_tree_walk_new(TSNode root) {
  if (!root.id) return NULL;
  LaunchlintTreeWalk *self = calloc(1, sizeof(LaunchlintTreeWalk));
  if (!self) return NULL;
  self->tree = root.tree;
  self->current = (const Subtree *)root.id;
  self->current_position = (Length){ts_node_start_byte(root), ts_node_start_point(root)};
  self->current_alias = (TSSymbol)root.context[3];
  return self;
}

void launchlint_tree_walk_reset(LaunchlintTreeWalk *self, TSNode root) {
  self->tree = root.tree;
  self->size = 0;
  self->started = false;
  self->current = (const Subtree *)root.id;
  self->current_position = (Length){ts_node_start_byte(root), ts_node_start_point(root)};
  self->current_alias = (TSSymbol)root.context[3];
  self->current_depth = 0;
  self->current_structural_child_index = 0;
  self->current_extra = false;
}

void launchlint_tree_walk_delete(LaunchlintTreeWalk *self) {
  if (!self) return;
  free(self->frames);
  free(self);
}

static bool push(LaunchlintTreeWalk *self, const Subtree *node, Length position, uint32_t depth,
                 uint32_t structural_child_index, bool visible, bool extra) {
  if (self->size == self->capacity) {
    const uint32_t capacity = self->capacity ? self->capacity * 2 : 64;
    Frame *frames = realloc(self->frames, capacity * sizeof(Frame));
    if (!frames) return false;
    self->frames = frames;
    self->capacity = capacity;
  }
  const uint16_t production_id = node->ptr->production_id;
  Frame *f = &self->frames[self->size++];
  f->children = ts_subtree_children(*node);
  f->alias_sequence = ts_language_alias_sequence(self->tree->language, production_id);
  f->position = position;
  f->child_index = 0;
  f->child_count = node->ptr->child_count;
  f->structural_child_index = 0;
  f->depth = depth;
  f->own_structural_child_index = structural_child_index;
  f->production_id = production_id;
  f->own_visible = visible;
  f->own_extra = extra;
  return true;
}

void launchlint_tree_walk_keep(LaunchlintTreeWalk *self, const bool *keep, uint32_t count) {
  self->keep = keep;
  self->keep_count = count;
}

void launchlint_tree_walk_skip_small(LaunchlintTreeWalk *self, const uint8_t *min_descendants, uint32_t count) {
  self->min_descendants = min_descendants;
  self->min_count = count;
}

/* ts_language_public_symbol, inlined: it runs for every node. */
static inline TSSymbol public_symbol(const TSLanguage *language, TSSymbol symbol) {
  return symbol == ts_builtin_sym_error ? symbol : language->public_symbol_map[symbol];
}

static void fill(const LaunchlintTreeWalk *self, LaunchlintTreeStep *out, TSSymbol symbol) {
  const Subtree subtree = *self->current;
  const TSLanguage *language = self->tree->language;
  const TSSymbol alias = self->current_alias;
  const Length position = self->current_position;
  /* ts_node_new, inlined. */
  out->node = (TSNode){{position.bytes, position.extent.row, position.extent.column, alias}, self->current, self->tree};
  out->symbol = symbol;
  out->depth = self->current_depth;
  out->named = alias ? ts_language_symbol_metadata(language, alias).named : ts_subtree_named(subtree);
  out->has_children = ts_subtree_child_count(subtree) > 0;
}

bool launchlint_tree_walk_next(LaunchlintTreeWalk *self, bool descend, LaunchlintTreeStep *out) {
  if (!self->started) {
    self->started = true;
    const TSSymbol alias = self->current_alias;
    fill(self, out, public_symbol(self->tree->language, alias ? alias : ts_subtree_symbol(*self->current)));
    return true;
  }
  if (descend && self->current && ts_subtree_child_count(*self->current) > 0) {
    /* The node returned last is visible (or the root): its children are one level deeper. */
    if (!push(self, self->current, self->current_position, self->current_depth + 1,
              self->current_structural_child_index, true, self->current_extra)) {
      return false;
    }
  }
  const TSLanguage *language = self->tree->language;
  while (self->size > 0) {
    Frame *f = &self->frames[self->size - 1];
    if (f->child_index == f->child_count) {
      --self->size;
      continue;
    }
    const Subtree *child = &f->children[f->child_index];
    const Length position = f->position;
    const uint32_t structural = f->structural_child_index;
    const bool extra = ts_subtree_extra(*child);
    bool visible = ts_subtree_visible(*child);
    TSSymbol alias = 0;
    if (!extra) {
      if (f->alias_sequence) {
        alias = f->alias_sequence[structural];
        visible |= alias != 0;
      }
      ++f->structural_child_index;
    }
    f->position = length_add(f->position, ts_subtree_size(*child));
    if (++f->child_index < f->child_count) {
      f->position = length_add(f->position, ts_subtree_padding(f->children[f->child_index]));
    }
    const uint32_t child_count = ts_subtree_child_count(*child);
    if (visible) {
      const TSSymbol symbol = public_symbol(language, alias ? alias : ts_subtree_symbol(*child));
      if (self->keep && symbol < self->keep_count && !self->keep[symbol]) {
        /* Not returned: a leaf is passed over, a node with children is entered as if hidden (one level deeper),
         * unless it is too small to hold a node of interest. */
        if (child_count > 0 && !(self->min_descendants && symbol < self->min_count &&
                                 child->ptr->visible_descendant_count < self->min_descendants[symbol])) {
          if (!push(self, child, position, f->depth + 1, structural, true, extra)) return false;
        }
        continue;
      }
      self->current = child;
      self->current_position = position;
      self->current_alias = alias;
      self->current_depth = f->depth;
      self->current_structural_child_index = structural;
      self->current_extra = extra;
      fill(self, out, symbol);
      return true;
    }
    if (child_count > 0 && child->ptr->visible_child_count > 0) {
      if (self->min_descendants) {
        const TSSymbol hidden = public_symbol(language, ts_subtree_symbol(*child));
        if (hidden < self->min_count && child->ptr->visible_descendant_count < self->min_descendants[hidden]) continue;
      }
      if (!push(self, child, position, f->depth, structural, false, extra)) return false;
    }
  }
  self->current = NULL;
  return false;
}

/* ts_tree_cursor_current_field_id for the node whose own entry is (structural, extra) and whose parent's frame is
 * frames[top - 1]: that node, then its hidden ancestors up to the first visible one; the first of them that a
 * field names in its parent's production gives the field. */
static TSFieldId field_of(const LaunchlintTreeWalk *self, uint32_t top, uint32_t structural, bool extra) {
  bool first = true;
  bool visible = true;
  for (uint32_t p = top; p-- > 0;) {
    if (!first && visible) break;
    if (extra) break;
    const TSFieldMapEntry *map = NULL;
    const TSFieldMapEntry *end = NULL;
    ts_language_field_map(self->tree->language, self->frames[p].production_id, &map, &end);
    for (; map < end; ++map) {
      if (!map->inherited && map->child_index == structural) return map->field_id;
    }
    const Frame *f = &self->frames[p];
    first = false;
    structural = f->own_structural_child_index;
    extra = f->own_extra;
    visible = f->own_visible;
  }
  return 0;
}

TSFieldId launchlint_tree_walk_field(const LaunchlintTreeWalk *self) {
  return field_of(self, self->size, self->current_structural_child_index, self->current_extra);
}

TSFieldId launchlint_tree_walk_ancestor_field(const LaunchlintTreeWalk *self, uint32_t depth) {
  if (depth >= self->current_depth) return launchlint_tree_walk_field(self);
  /* The ancestor's own frame: visible, its children one level deeper. */
  for (uint32_t p = self->size; p-- > 0;) {
    const Frame *f = &self->frames[p];
    if (f->own_visible && f->depth == depth + 1) return field_of(self, p, f->own_structural_child_index, f->own_extra);
  }
  return 0;
}

/* ---- Node queries: node.c's, with its iterator inlined ---- */

/* node.c's NodeChildIterator. */
typedef struct {
  Subtree parent;
  const TSTree *tree;
  Length position;
  uint32_t child_index;
  uint32_t structural_child_index;
  const TSSymbol *alias_sequence;
} ChildIterator;

static inline ChildIterator iterate_children(const TSNode *node) {
  const Subtree subtree = *(const Subtree *)node->id;
  if (ts_subtree_child_count(subtree) == 0) return (ChildIterator){NULL_SUBTREE, node->tree, length_zero(), 0, 0, NULL};
  return (ChildIterator){
      .parent = subtree,
      .tree = node->tree,
      .position = {ts_node_start_byte(*node), ts_node_start_point(*node)},
      .child_index = 0,
      .structural_child_index = 0,
      .alias_sequence = ts_language_alias_sequence(node->tree->language, subtree.ptr->production_id),
  };
}

static inline bool child_iterator_next(ChildIterator *self, TSNode *result) {
  if (!self->parent.ptr || self->child_index == self->parent.ptr->child_count) return false;
  const Subtree *child = &ts_subtree_children(self->parent)[self->child_index];
  TSSymbol alias_symbol = 0;
  if (!ts_subtree_extra(*child)) {
    if (self->alias_sequence) alias_symbol = self->alias_sequence[self->structural_child_index];
    self->structural_child_index++;
  }
  if (self->child_index > 0) self->position = length_add(self->position, ts_subtree_padding(*child));
  *result = (TSNode){{self->position.bytes, self->position.extent.row, self->position.extent.column, alias_symbol},
                     child, self->tree};
  self->position = length_add(self->position, ts_subtree_size(*child));
  self->child_index++;
  return true;
}

static inline Subtree subtree_of(TSNode n) { return *(const Subtree *)n.id; }

/* ts_node__is_relevant */
static inline bool is_relevant(TSNode self, bool include_anonymous) {
  const Subtree tree = subtree_of(self);
  const TSSymbol alias = (TSSymbol)self.context[3];
  if (include_anonymous) return ts_subtree_visible(tree) || alias;
  if (alias) return ts_language_symbol_metadata(self.tree->language, alias).named;
  return ts_subtree_visible(tree) && ts_subtree_named(tree);
}

/* ts_node__relevant_child_count */
static inline uint32_t relevant_child_count(TSNode self, bool include_anonymous) {
  const Subtree tree = subtree_of(self);
  if (ts_subtree_child_count(tree) == 0) return 0;
  return include_anonymous ? tree.ptr->visible_child_count : tree.ptr->named_child_count;
}

static const TSNode kNullNode = {{0, 0, 0, 0}, NULL, NULL};

/* ts_node__child */
static TSNode nth_child(TSNode self, uint32_t child_index, bool include_anonymous) {
  TSNode result = self;
  bool did_descend = true;
  while (did_descend) {
    did_descend = false;
    TSNode child;
    uint32_t index = 0;
    ChildIterator iterator = iterate_children(&result);
    while (child_iterator_next(&iterator, &child)) {
      if (is_relevant(child, include_anonymous)) {
        if (index == child_index) return child;
        index++;
      } else {
        const uint32_t grandchild_index = child_index - index;
        const uint32_t grandchild_count = relevant_child_count(child, include_anonymous);
        if (grandchild_index < grandchild_count) {
          did_descend = true;
          result = child;
          child_index = grandchild_index;
          break;
        }
        index += grandchild_count;
      }
    }
  }
  return kNullNode;
}

TSNode launchlint_child_by_field_id(TSNode self, TSFieldId field_id) {
recur:
  if (!self.id || !field_id || ts_subtree_child_count(subtree_of(self)) == 0 || subtree_of(self).ptr->visible_child_count == 0) {
    return kNullNode;
  }
  const TSFieldMapEntry *field_map;
  const TSFieldMapEntry *field_map_end;
  ts_language_field_map(self.tree->language, subtree_of(self).ptr->production_id, &field_map, &field_map_end);
  if (field_map == field_map_end) return kNullNode;
  while (field_map->field_id < field_id) {
    field_map++;
    if (field_map == field_map_end) return kNullNode;
  }
  while (field_map_end[-1].field_id > field_id) {
    field_map_end--;
    if (field_map == field_map_end) return kNullNode;
  }
  TSNode child;
  ChildIterator iterator = iterate_children(&self);
  while (child_iterator_next(&iterator, &child)) {
    if (!ts_subtree_extra(subtree_of(child))) {
      const uint32_t index = iterator.structural_child_index - 1;
      if (index < field_map->child_index) continue;
      if (field_map->inherited) {
        if (field_map + 1 == field_map_end) {
          self = child;
          goto recur;
        } else {
          const TSNode result = launchlint_child_by_field_id(child, field_id);
          if (result.id) return result;
          field_map++;
          if (field_map == field_map_end) return kNullNode;
        }
      } else if (is_relevant(child, true)) {
        return child;
      } else if (relevant_child_count(child, true) > 0) {
        return nth_child(child, 0, true);
      } else {
        field_map++;
        if (field_map == field_map_end) return kNullNode;
      }
    }
  }
  return kNullNode;
}

/* The named children in order, as ts_node_named_child(self, 0 ... n - 1) gives them, in one pass: a child that is
 * not relevant is replaced by its own named children, recursively (an explicit stack; hidden nesting is shallow). */
uint32_t launchlint_named_children(TSNode self, TSNode *out, uint32_t capacity) {
  if (!self.id) return 0;
  ChildIterator stack[64];
  uint32_t depth = 0;
  uint32_t count = 0;
  stack[depth++] = iterate_children(&self);
  while (depth > 0) {
    TSNode child;
    if (!child_iterator_next(&stack[depth - 1], &child)) {
      --depth;
      continue;
    }
    if (is_relevant(child, false)) {
      if (count < capacity) out[count] = child;
      ++count;
    } else if (relevant_child_count(child, false) > 0) {
      if (depth == sizeof stack / sizeof stack[0]) return UINT32_MAX; /* too deep: the caller asks one by one */
      stack[depth++] = iterate_children(&child);
    }
  }
  return count;
}

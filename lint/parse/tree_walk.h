/* A walk over every visible node of a tree-sitter tree in document order: the same nodes, depths and fields as a
 * TSTreeCursor moved with goto_first_child / goto_next_sibling / goto_parent, at a fraction of its cost.
 *
 * Why not the cursor: in the pinned runtime (tree-sitter 0.25) one cursor step costs ~600 instructions (it
 * rebuilds a child iterator, recounts descendant indices and re-walks hidden nodes on every move), which made
 * moving the cursor over a Python file cost a sixth of parsing it. This walk keeps its own stack of child
 * iterators over the runtime's subtrees, so a step costs a few dozen instructions. It reads the runtime's
 * internal subtree layout (subtree.h, language.h), which is why it is C, compiled against the pinned runtime's
 * own sources (grammars/manifest.txt); tests/lint/parse/tree_walk_test.cpp checks it against the cursor node by
 * node. No recursion: the stack is on the heap, so nesting depth is bounded by memory only. */
#ifndef LAUNCHLINT_PARSE_TREE_WALK_H_
#define LAUNCHLINT_PARSE_TREE_WALK_H_

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct LaunchlintTreeWalk LaunchlintTreeWalk;

/* One visible node. */
typedef struct {
  TSNode node;
  TSSymbol symbol;   /* ts_node_symbol(node) */
  uint32_t depth;    /* visible ancestors: 0 for the walk's root */
  bool named;        /* ts_node_is_named(node) */
  bool has_children; /* whether the node has any child, visible or hidden */
} LaunchlintTreeStep;

/* A walk starting at `root` (which it returns first). Null when out of memory or for a null root. */
LaunchlintTreeWalk *launchlint_tree_walk_new(TSNode root);
void launchlint_tree_walk_delete(LaunchlintTreeWalk *self);
/* Starts over at `root` (of any tree), keeping the stack's memory and the keep table. */
void launchlint_tree_walk_reset(LaunchlintTreeWalk *self, TSNode root);

/* Returns only nodes whose symbol s < count has keep[s] true (and the root): the others are passed over (a node
 * with children is still entered, so the depths of the nodes returned stay those of the tree). Most nodes are of
 * no interest to a caller that looks for a few kinds, and not returning them saves their cost. `keep` must
 * outlive the walk; null returns every node. */
void launchlint_tree_walk_keep(LaunchlintTreeWalk *self, const bool *keep, uint32_t count);

/* Subtrees too small to hold anything the caller looks for are not entered: a node that is not returned (its
 * public symbol s < count is not kept, or it is hidden) and has fewer than min_descendants[s] visible descendants
 * is passed over whole, as if it were a leaf. Only for a caller that knows how many visible nodes the smallest subtree it looks for has
 * (python_facts.cpp says why its table is safe); tree_walk_test.cpp checks that the kept nodes found are the same.
 * `min_descendants` must outlive the walk; null (the default) enters every node. */
void launchlint_tree_walk_skip_small(LaunchlintTreeWalk *self, const uint8_t *min_descendants, uint32_t count);

/* Moves to the next visible node in document order and fills `out`; false at the end. With `descend` false, the
 * children of the node returned last are skipped. The first call returns the root. False also when memory for
 * the stack ran out. */
bool launchlint_tree_walk_next(LaunchlintTreeWalk *self, bool descend, LaunchlintTreeStep *out);

/* The field of the node returned last, as ts_tree_cursor_current_field_id gives it (0: none). */
TSFieldId launchlint_tree_walk_field(const LaunchlintTreeWalk *self);

/* The field of the visible ancestor of the node returned last at visible depth `depth` (returned or passed over),
 * as a cursor standing on that ancestor would give it; the node's own field for its own depth. */
TSFieldId launchlint_tree_walk_ancestor_field(const LaunchlintTreeWalk *self, uint32_t depth);

/* ts_node_child_by_field_id, the same algorithm (node.c) with the runtime's iterator inlined: the fact
 * extraction asks it for every call, argument and assignment. */
TSNode launchlint_child_by_field_id(TSNode self, TSFieldId field_id);

/* Writes the named children of `self` (those ts_node_named_child gives for 0 ... n - 1) to out[0 ... capacity - 1]
 * in one pass; returns n (which may exceed capacity), or UINT32_MAX when hidden nodes nest too deep for its
 * fixed stack (then ask ts_node_named_child). */
uint32_t launchlint_named_children(TSNode self, TSNode *out, uint32_t capacity);

#ifdef __cplusplus
}
#endif

#endif

/* placeholder so the target has a source until the real files land; delete me */
typedef int placeholder_unused_t;

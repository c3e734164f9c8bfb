// Stands in for memfs's snapshot and tree-printing packages, which no fs call a snippet makes uses.
export {};

/** Edge scenarios per changed file, at most: each costs a run of the changed version, and of the base one when it fails. */
export const EDGE_BUDGET = 48;

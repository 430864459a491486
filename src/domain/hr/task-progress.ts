/** The tasks of a feature, epic or project, counted by whether they are done. */
export interface TaskProgress {
  taskCount: number;
  completedTaskCount: number;
  /** Percentage of the tasks that are done, to two decimals; 0 without tasks. */
  progress: number;
}

/** The share of `total` that `done` is, as a percentage to two decimals; 0 of nothing. */
export function percentDone(done: number, total: number): number {
  return total === 0 ? 0 : Math.round((done / total) * 10_000) / 100;
}

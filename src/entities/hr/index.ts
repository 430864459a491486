/** Entities of HR planning: projects, epics, features, teams. */
export const hrEntities: Function[] = [];

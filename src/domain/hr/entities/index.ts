import { Epic } from './epic';
import { Feature } from './feature';
import { HrProject } from './hr-project';
import { Task } from './task';
import { Team } from './team';

/** Entities of HR planning: projects, epics, features, teams, and the tasks progress counts. */
export const hrEntities: Function[] = [HrProject, Epic, Feature, Task, Team];

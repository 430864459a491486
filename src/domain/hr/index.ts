import type { DomainModule } from '../../modules';
import { hrEntities } from './entities';
import { hrRoutes } from './api/rest';
import { EpicResolver } from './api/epic-resolver';
import { epics } from './api/epics';
import { FeatureResolver } from './api/feature-resolver';
import { features } from './api/features';
import { HrProjectResolver } from './api/hr-project-resolver';
import { hrProjects } from './api/hr-projects';
import { tasks } from './api/tasks';
import { TeamResolver } from './api/team-resolver';
import { teams } from './api/teams';

/** HR planning: projects, epics, features, teams and tasks. */
export const hrModule: DomainModule = {
  entities: hrEntities,
  groups: [hrProjects, epics, features, teams, tasks],
  resolvers: [HrProjectResolver, EpicResolver, FeatureResolver, TeamResolver],
  routes: hrRoutes,
};

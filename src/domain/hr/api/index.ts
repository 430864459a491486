import type { GroupDef } from '../../../family/group';
import { EpicResolver } from './epic-resolver';
import { epics } from './epics';
import { FeatureResolver } from './feature-resolver';
import { features } from './features';
import { HrProjectResolver } from './hr-project-resolver';
import { hrProjects } from './hr-projects';
import { tasks } from './tasks';
import { TeamResolver } from './team-resolver';
import { teams } from './teams';

/** Groups with the standard family, and other resolvers, of this domain. */
export const hrGroups: GroupDef<any, any, any>[] = [hrProjects, epics, features, teams, tasks];
export const hrResolvers: Function[] = [HrProjectResolver, EpicResolver, FeatureResolver, TeamResolver];

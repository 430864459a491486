import { familyRoutes } from '../../../rest/family-routes';
import { fromRequest, type RestRoute } from '../../../rest/route';
import { searchFromQuery } from '../../../rest/search-params';
import { epics } from './epics';
import { features } from './features';
import { hrProjects } from './hr-projects';
import { teams } from './teams';

const ALL_BUT_S10 = ['create', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9'] as const;
const TEAMS_AND_EPICS = ['create', 'S1', 'S2', 'S4', 'S6', 'S7', 'S8', 'S9'] as const;

export const hrRoutes: RestRoute[] = [
  ...familyRoutes(features, '/hr/features', ALL_BUT_S10),
  {
    method: 'GET',
    path: '/hr/features/by-epic/{epicId}',
    field: 'featuresByEpic',
    code: 'custom',
    summary: 'The features of an epic',
  },
  {
    method: 'GET',
    path: '/hr/features/by-status/{status}',
    field: 'featuresByStatus',
    code: 'custom',
    summary: 'The features in a status',
  },

  ...familyRoutes(teams, '/hr/teams', TEAMS_AND_EPICS),
  { method: 'GET', path: '/hr/teams/active', field: 'activeTeams', code: 'custom', summary: 'Active teams' },
  {
    method: 'GET',
    path: '/hr/teams/by-member/{memberId}',
    field: 'teamsByMember',
    code: 'custom',
    summary: 'The teams an employee is a member of',
  },
  {
    method: 'GET',
    path: '/hr/teams/by-status/{status}',
    field: 'teamsByStatus',
    code: 'custom',
    summary: 'The teams in a status',
  },
  {
    // Every Team response carries `members`, so the enriched search is the dynamic search.
    method: 'GET',
    path: '/hr/teams/dynamic-search-enriched',
    field: 'searchTeams',
    args: { input: fromRequest(searchFromQuery) },
    code: 'custom',
    summary: 'Dynamic search of teams, with their members',
  },

  ...familyRoutes(epics, '/hr/epics', TEAMS_AND_EPICS),
  {
    method: 'GET',
    path: '/hr/epics/active',
    field: 'activeEpics',
    code: 'custom',
    summary: 'Epics in PLANNING or IN_PROGRESS',
  },
  {
    method: 'GET',
    path: '/hr/epics/by-owner/{ownerId}',
    field: 'epicsByOwner',
    code: 'custom',
    summary: 'The epics an employee owns',
  },
  {
    method: 'GET',
    path: '/hr/epics/by-project/{projectId}',
    field: 'epicsByProject',
    code: 'custom',
    summary: 'The epics of an HR project',
  },
  {
    method: 'GET',
    path: '/hr/epics/by-status/{status}',
    field: 'epicsByStatus',
    code: 'custom',
    summary: 'The epics in a status',
  },

  ...familyRoutes(hrProjects, '/hr/projects', ['create', 'S1', 'S2', 'S6', 'S7', 'S8', 'S9']),
  {
    method: 'GET',
    path: '/hr/projects/active',
    field: 'activeHrProjects',
    code: 'custom',
    summary: 'HR projects in status ACTIVE',
  },
  {
    method: 'GET',
    path: '/hr/projects/by-lead/{leadId}',
    field: 'hrProjectsByLead',
    code: 'custom',
    summary: 'The HR projects an employee leads',
  },
  {
    method: 'GET',
    path: '/hr/projects/by-status/{status}',
    field: 'hrProjectsByStatus',
    code: 'custom',
    summary: 'The HR projects in a status',
  },
];

import type { DomainModule } from '../../modules';
import { LiveResolver } from './api/subscriptions';

/** Live subscriptions over WebSocket (their hub and streams are src/events/live.ts). */
export const liveModule: DomainModule = {
  entities: [],
  groups: [],
  resolvers: [LiveResolver],
  routes: [],
};

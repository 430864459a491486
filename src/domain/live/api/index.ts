import { LiveResolver } from './subscriptions';

export const liveResolvers: Function[] = [LiveResolver];

import { UserResolver } from './access/users';

/** Resolvers beyond the generated family ones. */
export const extraResolvers: Function[] = [UserResolver];

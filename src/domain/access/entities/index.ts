import { UserInvitation } from './user-invitation';

/** Entities of access control that no other part of the kernel shares: the users' invitations. */
export const accessEntities: Function[] = [UserInvitation];

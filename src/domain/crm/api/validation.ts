import { ValidateIf } from 'class-validator';

/**
 * For update inputs: a field may be left out (it stays as it is), but `null` is validated like
 * any other value, so a required column is never cleared into a database error.
 */
export const NotNullWhenGiven = () => ValidateIf((_object, value) => value !== undefined);

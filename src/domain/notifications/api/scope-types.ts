import { Field, ObjectType } from 'type-graphql';
import { NotificationCategory } from '../entities/notification';
import type { ScopeEntry } from '../scopes';

@ObjectType({ description: 'A kind of notification a user can switch off.' })
export class NotificationScope implements ScopeEntry {
  @Field(() => NotificationCategory, { description: 'Category the scope belongs to.' })
  category!: NotificationCategory;
  @Field(() => String, { description: 'Readable name of the scope.' }) label!: string;
  @Field(() => String, { description: 'Key of the scope, as `disabledScopes` holds it.' }) scope!: string;
}

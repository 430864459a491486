import { ArrayMaxSize, ArrayMinSize, IsOptional, IsUUID, Length } from 'class-validator';
import { Field, InputType } from 'type-graphql';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { Permission } from '../../../permissions/catalog';

@InputType({ description: 'A new API key for an integration.' })
export class CreateApiKeyInput {
  @Field(() => String, { description: 'What the key is for.' })
  @Length(1, 200)
  name!: string;

  @Field(() => [Permission], { description: 'What the key may do: permissions its creator holds.' })
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  permissions!: string[];

  @Field(() => String, { nullable: true, description: 'Limits the key to this subsidiary.' })
  @IsOptional()
  @IsUUID()
  subsidiaryId?: string;

  @Field(() => String, { nullable: true, description: 'Limits the key to this project.' })
  @IsOptional()
  @IsUUID()
  projectId?: string;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the key stops working (never when absent).',
  })
  @IsOptional()
  expiresAt?: Date;
}

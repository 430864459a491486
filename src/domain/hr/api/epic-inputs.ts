import { Field, ID, InputType, Int } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import { ArrayMaxSize, IsOptional, IsUUID, Length, MaxLength } from 'class-validator';
import { EpicStatus, EPIC_DOCS } from '../entities/epic';
import { NotNullWhenGiven } from '../input-rules';

@InputType({ description: 'A new epic.' })
export class CreateEpicInput {
  @Field(() => String, { description: EPIC_DOCS.name }) @Length(1, 200) name!: string;
  @Field(() => String, { nullable: true, description: EPIC_DOCS.description })
  @IsOptional()
  @MaxLength(5000)
  description?: string;
  @Field(() => String, { nullable: true, description: EPIC_DOCS.color })
  @IsOptional()
  @MaxLength(50)
  color?: string;
  @Field(() => ID, {
    nullable: true,
    description: EPIC_DOCS.ownerId,
  })
  @IsOptional()
  @IsUUID()
  ownerId?: string;
  @Field(() => ID, {
    nullable: true,
    description: EPIC_DOCS.projectId,
  })
  @IsOptional()
  @IsUUID()
  projectId?: string;
  @Field(() => Int, { nullable: true, description: EPIC_DOCS.priority })
  priority?: number;
  @Field(() => EpicStatus, { nullable: true, description: EPIC_DOCS.status })
  status?: EpicStatus;
  @Field(() => [String], { nullable: true, description: EPIC_DOCS.tags })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(100, { each: true })
  tags?: string[];
  @Field(() => LocalDateResolver, { nullable: true, description: EPIC_DOCS.targetStartDate })
  targetStartDate?: string;
  @Field(() => LocalDateResolver, {
    nullable: true,
    description: EPIC_DOCS.targetEndDate,
  })
  targetEndDate?: string;
}

@InputType({ description: 'Changes to an epic; absent fields stay as they are.' })
export class UpdateEpicInput extends CreateEpicInput {
  @Field(() => String, { nullable: true, description: EPIC_DOCS.name })
  @NotNullWhenGiven()
  @Length(1, 200)
  override name!: string;
  @Field(() => EpicStatus, { nullable: true, description: EPIC_DOCS.status })
  @NotNullWhenGiven()
  override status?: EpicStatus;
}

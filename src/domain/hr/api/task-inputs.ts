import { Field, ID, InputType } from 'type-graphql';
import { IsOptional, IsUUID, Length } from 'class-validator';
import { TaskStatus, TASK_DOCS } from '../entities/task';
import { NotNullWhenGiven } from '../input-rules';

@InputType({ description: 'A new task; its epic and project follow from its feature and epic.' })
export class CreateTaskInput {
  @Field(() => String, { description: TASK_DOCS.title }) @Length(1, 500) title!: string;
  @Field(() => TaskStatus, {
    nullable: true,
    description: TASK_DOCS.status,
  })
  status?: TaskStatus;
  @Field(() => ID, {
    nullable: true,
    description: TASK_DOCS.featureId,
  })
  @IsOptional()
  @IsUUID()
  featureId?: string;
  @Field(() => ID, {
    nullable: true,
    description: TASK_DOCS.epicId,
  })
  @IsOptional()
  @IsUUID()
  epicId?: string;
  @Field(() => ID, {
    nullable: true,
    description: TASK_DOCS.projectId,
  })
  @IsOptional()
  @IsUUID()
  projectId?: string;
  @Field(() => ID, { nullable: true, description: TASK_DOCS.assigneeId })
  @IsOptional()
  @IsUUID()
  assigneeId?: string;
}

@InputType({ description: 'Changes to a task; absent fields stay as they are.' })
export class UpdateTaskInput extends CreateTaskInput {
  @Field(() => String, { nullable: true, description: TASK_DOCS.title })
  @NotNullWhenGiven()
  @Length(1, 500)
  override title!: string;
  @Field(() => TaskStatus, {
    nullable: true,
    description: TASK_DOCS.status,
  })
  @NotNullWhenGiven()
  override status?: TaskStatus;
}

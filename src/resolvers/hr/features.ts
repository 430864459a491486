import { Field, ID, InputType, Int } from 'type-graphql';
import { ArrayMaxSize, IsOptional, IsUUID, Length, MaxLength, Min } from 'class-validator';
import { Feature, FeaturePriority, FeatureStatus } from '../../entities/hr/feature';
import { defineGroup } from '../../family/group';
import { FamilyService } from '../../family/service';
import { epicService } from './epics';
import { fillDefaults, NotNullWhenGiven } from './input-rules';
import { AUDIT_FIELDS } from '../../family/fields';
import { requireRef } from '../../family/references';
import { moveTasks } from './task-placement';

@InputType({ description: 'A new feature.' })
export class CreateFeatureInput {
  @Field(() => String, { description: 'Name of the feature.' }) @Length(1, 200) name!: string;
  @Field(() => String, { nullable: true, description: 'What the feature is about.' })
  @IsOptional()
  @MaxLength(5000)
  description?: string;
  @Field(() => ID, {
    nullable: true,
    description: 'Id of the epic the feature belongs to; its tasks follow it when it changes.',
  })
  @IsOptional()
  @IsUUID()
  epicId?: string;
  @Field(() => FeaturePriority, { nullable: true, description: 'How important the feature is.' })
  priority?: FeaturePriority;
  @Field(() => FeatureStatus, { nullable: true, description: 'Where the feature stands (default BACKLOG).' })
  status?: FeatureStatus;
  @Field(() => [String], { nullable: true, description: 'Free labels.' })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(100, { each: true })
  tags?: string[];
  @Field(() => Int, { nullable: true, description: 'Estimated effort in story points.' })
  @IsOptional()
  @Min(0)
  estimatedPoints?: number;
}

@InputType({ description: 'Changes to a feature; absent fields stay as they are.' })
export class UpdateFeatureInput extends CreateFeatureInput {
  @Field(() => String, { nullable: true, description: 'Name of the feature.' })
  @NotNullWhenGiven()
  @Length(1, 200)
  override name!: string;
  @Field(() => FeatureStatus, { nullable: true, description: 'Where the feature stands (default BACKLOG).' })
  @NotNullWhenGiven()
  override status?: FeatureStatus;
}

export const features = defineGroup({
  entity: Feature,
  name: 'Feature',
  plural: 'Features',
  resource: 'FEATURES',
  createInput: CreateFeatureInput,
  updateInput: UpdateFeatureInput,
  searchable: ['name', 'description'],
  filterable: [
    ...AUDIT_FIELDS,
    'name',
    'description',
    'epicId',
    'priority',
    'status',
    'tags',
    'estimatedPoints',
  ],
  async beforeSave(ctx, feature, input, isNew) {
    fillDefaults(feature, { status: FeatureStatus.BACKLOG, tags: [] });
    const epic = input.epicId ? await requireRef(ctx, 400, 'epicId', input.epicId, epicService) : null;
    if (!isNew && input.epicId !== undefined)
      await moveTasks(
        ctx,
        { featureId: feature.id },
        { epicId: epic?.id ?? null, projectId: epic?.projectId ?? null },
      );
  },
});

/** The family operations of features, for this domain's own rules and queries. */
export const featureService = new FamilyService(features);

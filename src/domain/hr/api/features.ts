import { ID } from 'type-graphql';
import { Feature, FeatureStatus } from '../entities/feature';
import { defineGroup } from '../../../family/group';
import { FamilyService } from '../../../family/service';
import { fillDefaults } from '../input-rules';
import { requireRef } from '../../../family/references';
import { moveTasks } from '../task-placement';
import { featureEpicSql, taskProgressSql, taskTallySql } from '../progress-repository';
import { epicService } from './epics';
import { CreateFeatureInput, UpdateFeatureInput } from './feature-inputs';

export const features = defineGroup({
  entity: Feature,
  name: 'Feature',
  plural: 'Features',
  resource: 'FEATURES',
  createInput: CreateFeatureInput,
  updateInput: UpdateFeatureInput,
  searchable: ['name', 'description'],
  lists: [
    {
      name: 'featuresByEpic',
      description: 'The features of an epic, oldest first.',
      field: 'epicId',
      arg: 'epicId',
      argDescription: 'Id of the epic.',
      type: () => ID,
    },
    {
      name: 'featuresByStatus',
      description: 'The features in a status, oldest first.',
      field: 'status',
      arg: 'status',
      argDescription: 'The status.',
      type: () => FeatureStatus,
    },
  ],
  derived: taskProgressSql('feature_id'),
  joined: { epic: featureEpicSql, taskTally: taskTallySql('feature_id') },
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

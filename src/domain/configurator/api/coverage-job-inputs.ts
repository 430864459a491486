import { Field, ID, InputType } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { CoverageJobPriority, COVERAGE_JOB_DOCS } from '../entities/coverage-job';
import { allOf } from '../../../family/field-decorators';

/** The fields a job is created and changed with alike. */
const JobField = {
  name: () =>
    allOf(
      Field(() => String, { nullable: true, description: COVERAGE_JOB_DOCS.name }),
      IsOptional(),
      Length(1, 300),
    ),
  description: () => Field(() => String, { nullable: true, description: COVERAGE_JOB_DOCS.description }),
};

@InputType({ description: 'A coverage calculation of one static model, queued by hand.' })
export class CreateCoverageJobInput {
  @Field(() => ID, { description: COVERAGE_JOB_DOCS.typeId })
  typeId!: string;
  @Field(() => String, { description: 'Id of the static model whose variants are calculated.' })
  staticModelId!: string;
  @Field(() => CoverageJobPriority, { nullable: true, description: 'Priority of the job (default LOW).' })
  priority?: CoverageJobPriority;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Default: now.' }) runAfter?: Date;
  @JobField.name() name?: string;
  @JobField.description() description?: string;
}

@InputType({ description: 'Changes to a job; only a PENDING job may be re-prioritised or rescheduled.' })
export class UpdateCoverageJobInput {
  @Field(() => CoverageJobPriority, {
    nullable: true,
    description: COVERAGE_JOB_DOCS.priority,
  })
  priority?: CoverageJobPriority;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'The job is not claimed before this time (retries back off exponentially).',
  })
  runAfter?: Date;
  @JobField.name() name?: string;
  @JobField.description() description?: string;
}

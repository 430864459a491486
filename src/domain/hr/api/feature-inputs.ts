import { Field, ID, InputType, Int } from 'type-graphql';
import { ArrayMaxSize, IsOptional, IsUUID, Length, MaxLength, Min } from 'class-validator';
import { FeaturePriority, FeatureStatus, FEATURE_DOCS } from '../entities/feature';
import { NotNullWhenGiven } from '../input-rules';

@InputType({ description: 'A new feature.' })
export class CreateFeatureInput {
  @Field(() => String, { description: FEATURE_DOCS.name }) @Length(1, 200) name!: string;
  @Field(() => String, { nullable: true, description: FEATURE_DOCS.description })
  @IsOptional()
  @MaxLength(5000)
  description?: string;
  @Field(() => ID, {
    nullable: true,
    description: FEATURE_DOCS.epicId,
  })
  @IsOptional()
  @IsUUID()
  epicId?: string;
  @Field(() => FeaturePriority, { nullable: true, description: FEATURE_DOCS.priority })
  priority?: FeaturePriority;
  @Field(() => FeatureStatus, { nullable: true, description: FEATURE_DOCS.status })
  status?: FeatureStatus;
  @Field(() => [String], { nullable: true, description: FEATURE_DOCS.tags })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(100, { each: true })
  tags?: string[];
  @Field(() => Int, { nullable: true, description: FEATURE_DOCS.estimatedPoints })
  @IsOptional()
  @Min(0)
  estimatedPoints?: number;
}

@InputType({ description: 'Changes to a feature; absent fields stay as they are.' })
export class UpdateFeatureInput extends CreateFeatureInput {
  @Field(() => String, { nullable: true, description: FEATURE_DOCS.name })
  @NotNullWhenGiven()
  @Length(1, 200)
  override name!: string;
  @Field(() => FeatureStatus, { nullable: true, description: FEATURE_DOCS.status })
  @NotNullWhenGiven()
  override status?: FeatureStatus;
}

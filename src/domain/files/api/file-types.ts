import { Field, Float, ID, InputType, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { IsInt, IsOptional, Length, Min } from 'class-validator';
import { FileAsset, ImageRef } from '../../../entities/shared';
import { DateTimeISOResolver } from '../../../schema/date-time';

@ObjectType('StoredFileAnswer', {
  description: 'A stored file: its FileAsset and, for an image, its ImageRef.',
})
export class StoredFileAnswer {
  @Field(() => FileAsset, { description: 'The file, as records hold it.' }) file!: FileAsset;
  @Field(() => ImageRef, { nullable: true, description: 'For an image: its dimensions and thumbnail.' })
  image?: ImageRef | null;
}

@InputType('CreateFileUploadInput', { description: 'A file a browser is about to upload, as declared.' })
export class CreateFileUploadInput {
  @Field(() => String, { description: 'File name (shown and offered on download; never a path).' })
  @Length(1, 1000)
  name!: string;

  @Field(() => String, { description: 'Media type, which the stored content must have (`image/png`).' })
  @Length(3, 255)
  type!: string;

  @Field(() => Float, { description: 'Exact size in bytes; the completion call checks it.' })
  @IsInt()
  @Min(0)
  size!: number;
}

@ObjectType('FileUploadTicket', {
  description:
    'Where to send the bytes of a two-step upload: a multipart/form-data POST to `url` holding `fields`, then a part named `file`, before `expires`; then call `completeFileUpload`.',
})
export class FileUploadTicket {
  @Field(() => ID, { description: 'Id of the file once completed (its blobId).' }) fileId!: string;
  @Field(() => String, { description: 'Always POST.' }) method!: string;
  @Field(() => String, {
    description: 'Where to send the form: the object store, or the service (local backend).',
  })
  url!: string;
  @Field(() => GraphQLJSON, { description: 'Form fields to send before the file, as given.' })
  fields!: Record<string, string>;
  @Field(() => DateTimeISOResolver, { description: 'The upload must be sent before this time.' })
  expires!: Date;
}

@ObjectType('FileSettings', { description: "The tenant's limits on stored files, and what it uses." })
export class FileSettingsView {
  @Field(() => Float, { description: 'Largest file in bytes.' }) maxFileSize!: number;
  @Field(() => Float, { description: 'Bytes all files of the tenant may take together.' })
  quotaBytes!: number;
  @Field(() => [String], { description: 'Media types that may be stored (`image/*` prefixes, `*` for any).' })
  allowedTypes!: string[];
  @Field(() => Float, { description: 'Bytes the tenant stores now.' }) usedBytes!: number;
}

@InputType('FileSettingsInput', {
  description:
    "The tenant's limits on stored files, all at once: a null or omitted limit goes back to the default.",
})
export class FileSettingsInput {
  @Field(() => Float, { nullable: true, description: 'Largest file in bytes.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  maxFileSize?: number | null;
  @Field(() => Float, { nullable: true, description: 'Bytes all files of the tenant may take together.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  quotaBytes?: number | null;
  @Field(() => [String], { nullable: true, description: 'Media types that may be stored.' })
  allowedTypes?: string[] | null;
}

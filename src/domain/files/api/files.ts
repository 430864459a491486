import { Arg, Ctx, Extensions, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../../context';
import { FileAsset, ImageRef } from '../../../entities/shared';
import { badRequest, notFound } from '../../../errors';
import { authenticated, can, Requires } from '../../../permissions/rules';
import { assetOf, findFile, imageOf, limitsOf, saveLimits, type FileStore } from '../stored-files';
import { usedBytes } from '../stored-file-repository';
import { fileEvent } from '../file-events';
import { assetLinks, imageLinks, uploadToken } from './files-router';
import {
  CreateFileUploadInput,
  FileSettingsInput,
  FileSettingsView,
  FileUploadTicket,
  StoredFileAnswer,
} from './file-types';

function storeOf(ctx: Context): FileStore {
  if (!ctx.files) throw new Error('this context serves no files');
  return ctx.files;
}

const answerOf = (file: Parameters<typeof assetOf>[0]): StoredFileAnswer => ({
  file: Object.assign(new FileAsset(), assetOf(file)),
  image: file.type.startsWith('image/') ? Object.assign(new ImageRef(), imageOf(file)) : null,
});

@Resolver(() => StoredFileAnswer)
export class StoredFileResolver {
  @Requires(authenticated)
  @Query(() => StoredFileAnswer, {
    nullable: true,
    description:
      "A stored file of the caller's tenant, or null: its FileAsset and, for an image, its ImageRef.",
  })
  async storedFile(
    @Arg('id', () => ID, { description: 'Id of the stored file (its blobId).' }) id: string,
    @Ctx() ctx: Context,
  ): Promise<StoredFileAnswer | null> {
    const file = await findFile(ctx.em, ctx.caller!.tenantId, id);
    return file ? answerOf(file) : null;
  }

  @Requires(authenticated)
  @Mutation(() => FileUploadTicket, {
    description:
      'Starts a two-step upload: where to send the bytes (presigned, with size and type conditions), counted against the quota until completed or expired.',
  })
  async createFileUpload(
    @Arg('input', () => CreateFileUploadInput, {
      description: 'The file to be uploaded: name, type and size.',
    })
    input: CreateFileUploadInput,
    @Ctx() ctx: Context,
  ): Promise<FileUploadTicket> {
    const store = storeOf(ctx);
    const caller = ctx.caller!;
    const { file } = await store.reserve(ctx.em, caller.tenantId, caller.userId, input);
    const expires = file.expires!;
    if (store.backend.presignPost) {
      const post = await store.backend.presignPost(file.storageKey, {
        type: file.type,
        size: file.size,
        expiresSeconds: store.settings.uploadTtlSeconds,
      });
      return { fileId: file.id, method: 'POST', url: post.url, fields: post.fields, expires };
    }
    const token = uploadToken(store.uploadSecret, caller.tenantId, file.id, expires);
    return {
      fileId: file.id,
      method: 'POST',
      url: `/api/v1/file-uploads/${file.id}?signature=${encodeURIComponent(token)}`,
      fields: {},
      expires,
    };
  }

  @Requires(authenticated)
  @Mutation(() => StoredFileAnswer, {
    description:
      'Completes a two-step upload: the stored object must exist with the declared size and type; then it is a file.',
  })
  async completeFileUpload(
    @Arg('id', () => ID, { description: 'Id of the upload that createFileUpload answered.' }) id: string,
    @Ctx() ctx: Context,
  ): Promise<StoredFileAnswer> {
    const store = storeOf(ctx);
    const caller = ctx.caller!;
    const pending = await store.pending(ctx.em, caller.tenantId, id);
    // The request's own transaction records it: a failure leaves the upload pending.
    const file = await store.complete(pending, (work) => work(ctx.em));
    await fileEvent(ctx.em, caller.tenantId, 'file.created', file);
    return answerOf(file);
  }

  @Requires(can('DELETE', 'ASSETS'))
  @Mutation(() => Boolean, {
    description:
      'Deletes a stored file: it is gone at once for every reader, records that name it keep the id (and their downloads answer 404), and its bytes are removed by the clean-up job.',
  })
  async deleteFile(
    @Arg('id', () => ID, { description: 'Id of the stored file to delete.' }) id: string,
    @Ctx() ctx: Context,
  ): Promise<boolean> {
    const caller = ctx.caller!;
    const file = await storeOf(ctx).remove(ctx.em, caller.tenantId, id);
    if (!file) throw notFound(`there is no file ${id}`);
    await fileEvent(ctx.em, caller.tenantId, 'file.deleted', file);
    return true;
  }

  @Requires(can('READ', 'ASSETS'))
  @Query(() => FileSettingsView, { description: "The tenant's limits on stored files, and what it uses." })
  async fileSettings(@Ctx() ctx: Context): Promise<FileSettingsView> {
    const tenantId = ctx.caller!.tenantId;
    const limits = await limitsOf(ctx.em, tenantId, storeOf(ctx).settings.defaults);
    return {
      ...limits,
      allowedTypes: [...limits.allowedTypes],
      usedBytes: await usedBytes(ctx.em, tenantId),
    };
  }

  @Requires(can('UPDATE', 'ASSETS'))
  @Mutation(() => FileSettingsView, { description: "Sets the tenant's limits on stored files." })
  async updateFileSettings(
    @Arg('input', () => FileSettingsInput, {
      description: "The tenant's file limits; a null goes back to the default.",
    })
    input: FileSettingsInput,
    @Ctx() ctx: Context,
  ): Promise<FileSettingsView> {
    if (input.allowedTypes?.some((t) => !/^(\*|[\w.+-]+\/(\*|[\w.+-]+))$/.test(t.trim())))
      throw badRequest('allowedTypes: each must be a media type (`image/png`), a prefix (`image/*`) or `*`');
    await saveLimits(ctx.em, ctx.caller!.tenantId, input);
    return this.fileSettings(ctx);
  }
}

@Resolver(() => FileAsset)
export class FileAssetResolver {
  // REST answers keep the specification's shapes; a REST client downloads at /files/{blobId}.
  @Extensions({ rest: false, searchable: false })
  @FieldResolver(() => String, {
    nullable: true,
    description: 'Where to download the file (a path of this service).',
  })
  url(@Root() asset: FileAsset): string | null {
    return assetLinks(asset).url;
  }

  @Extensions({ rest: false, searchable: false })
  @FieldResolver(() => String, { nullable: true, description: "Where to download an image's thumbnail." })
  thumbnailUrl(@Root() asset: FileAsset): string | null {
    return assetLinks(asset).thumbnailUrl;
  }
}

@Resolver(() => ImageRef)
export class ImageRefResolver {
  // REST answers keep the specification's shapes; a REST client downloads at /files/{blobId}.
  @Extensions({ rest: false, searchable: false })
  @FieldResolver(() => String, {
    nullable: true,
    description: 'Where to download the image (a path of this service).',
  })
  url(@Root() image: ImageRef): string | null {
    return imageLinks(image).url;
  }

  @Extensions({ rest: false, searchable: false })
  @FieldResolver(() => String, { nullable: true, description: "Where to download the image's thumbnail." })
  thumbnailUrl(@Root() image: ImageRef): string | null {
    return imageLinks(image).thumbnailUrl;
  }
}

export const fileResolvers: Function[] = [StoredFileResolver, FileAssetResolver, ImageRefResolver];

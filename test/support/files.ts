import sharp from 'sharp';
import type { TestTenant } from './server';

/**
 * A file stored through the API (POST /files) for a tenant, for tests whose records name one:
 * a PNG of `width` x `height` unless `content` is given. Answers the upload's `file` and `image`.
 */
export async function storedFile(
  baseUrl: string,
  tenant: Pick<TestTenant, 'token'>,
  {
    name = 'picture.png',
    type = 'image/png',
    content,
    width = 8,
    height = 6,
  }: { name?: string; type?: string; content?: Buffer | string; width?: number; height?: number } = {},
): Promise<{ file: any; image: any }> {
  const bytes =
    content ??
    (await sharp({ create: { width, height, channels: 3, background: { r: 0, g: 90, b: 160 } } })
      .png()
      .toBuffer());
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const res = await fetch(`${baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.token}` },
    body: form,
  });
  const body = (await res.json()) as { file: any; image: any };
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
  // As records hold them: without the download URLs the upload's answer adds.
  const { url: _url, thumbnailUrl: _fileThumbnailUrl, ...file } = body.file;
  const { url: _imageUrl, thumbnailUrl: _thumbnailUrl, ...image } = body.image ?? {};
  return { file, image: body.image ? image : null };
}

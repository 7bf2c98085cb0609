import { api } from '../../../api/client';

/** Uploads a chosen file as the caller's, answering its id (the instance's writes name files by id). */
export async function uploadChosen(file: File, fallbackType = 'application/octet-stream'): Promise<string> {
  return (await api.upload(file.name, new Uint8Array(await file.arrayBuffer()), file.type || fallbackType)).id;
}

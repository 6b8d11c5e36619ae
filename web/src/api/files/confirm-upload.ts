import { ZObjectPath, type TObjectPurpose } from '#domain/files';
import { apiRequest } from '../../lib/api-request.ts';

/** What a confirmed file is to the form that attaches it. */
export interface TAttachment {
  name: string;
  size: number;
  type: string;
  /** Where it is downloaded from; what a note's attachments and a chat attachment's url hold. */
  objectPath: string;
}

/**
 * Confirms an uploaded file for its purpose: PUT /api/patient-attachments for notes, PUT
 * /api/chat-attachments for chat (which also names the file and its size). The server reads
 * the type from the bytes; a refusal is an ApiError with its message.
 */
export async function confirmUpload(purpose: TObjectPurpose, file: { fileURL: string; name: string; size: number }): Promise<string> {
  const response =
    purpose === 'chat-attachment'
      ? await apiRequest('PUT', '/api/chat-attachments', { fileURL: file.fileURL, fileName: file.name, fileSize: file.size })
      : await apiRequest('PUT', '/api/patient-attachments', { fileURL: file.fileURL, fileName: file.name });
  return ZObjectPath.parse(await response.json()).objectPath;
}

import { api, authorization, ok } from "../../api/client";

/**
 * requestUpload, then the bytes PUT to its uploadUrl with XMLHttpRequest (fetch reports no upload progress);
 * resolves to the file id once the server has stored it.
 */
export async function uploadFile(file: File, onProgress: (fraction: number) => void): Promise<string> {
  const contentType = file.type || "application/octet-stream";
  const slot = await ok(api.POST("/api/v1/files", { body: { fileName: file.name, contentType, size: file.size } }));
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", slot.uploadUrl);
    const auth = authorization();
    if (auth) xhr.setRequestHeader("authorization", auth);
    xhr.setRequestHeader("content-type", slot.contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(`upload ${xhr.status}`)));
    xhr.onerror = () => reject(new Error("upload failed"));
    xhr.send(file);
  });
  onProgress(1);
  return slot.fileId;
}

/** Uploads files one after another; onProgress gets the fraction of all of them. Resolves to their ids in order. */
export async function uploadFiles(files: File[], onProgress: (fraction: number) => void): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, f] of files.entries()) ids.push(await uploadFile(f, (p) => onProgress((i + p) / files.length)));
  return ids;
}

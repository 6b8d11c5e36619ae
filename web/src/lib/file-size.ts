/** Spec section 9: attachment sizes in KB to one decimal, wherever a file is listed. */
export const sizeInKb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

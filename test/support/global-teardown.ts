/** Jest global teardown. */
export default async function globalTeardown(): Promise<void> {}

/** Jest global setup (the OpenStack peer is started here once integration tests exist). */
export default async function globalSetup(): Promise<void> {}

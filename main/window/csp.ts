/** The renderer's Content-Security-Policy: only the app's own scripts, styles and images; nothing inline, nothing remote. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'";

// swagger-ui-dist ships no types; this file of it only reports where its assets lie.
declare module 'swagger-ui-dist/absolute-path.js' {
  const getAbsoluteFSPath: () => string;
  export default getAbsoluteFSPath;
}

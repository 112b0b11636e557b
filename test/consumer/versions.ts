/** Registry packages the consumer apps install besides the tarballs: the repository's own pins, so the npm cache has them. */
export const TYPES_NODE = "20.19.25";

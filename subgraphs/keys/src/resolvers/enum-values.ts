/** The schema's enum value of a stored lower-case one (`toUpperCase` is typed as any string). */
export const upper = <T extends string>(value: T) => value.toUpperCase() as Uppercase<T>;

/** The stored lower-case value of a schema enum value (`toLowerCase` is typed as any string). */
export const lower = <T extends string>(value: T) => value.toLowerCase() as Lowercase<T>;

// Column formats every response shares, written once: timestamps as ISO 8601 UTC with a `Z`,
// dates as YYYY-MM-DD.
export const isoTimestamp = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
export const isoDate = (col: string) => `to_char(${col}, 'YYYY-MM-DD')`;

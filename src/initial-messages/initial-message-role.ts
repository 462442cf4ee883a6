/** Who speaks a message; the one list of roles (the database takes any, so adding one needs no migration). */
export enum InitialMessageRole {
  ASSISTANT = 'ASSISTANT',
}

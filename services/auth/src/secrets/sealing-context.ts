/** The additional data that binds a team's sealed states to the team and the secret's fingerprint. */
export function sealingContext(teamId: string, fingerprint: string): string {
  return `pulsegate:team-secret:${teamId}:${fingerprint}`;
}

/** A SKILL.md whose frontmatter is never closed, as gogcli's on ClawHub: listed with an error, never routed. */
export const UNCLOSED = [
  '---',
  'name: notes-digest',
  'description: Turns a folder of meeting notes into a one-page digest with decisions and owners.',
  '',
  '# Notes digest',
  '',
  'Read every note in the folder and write the digest.',
  '',
].join('\n');

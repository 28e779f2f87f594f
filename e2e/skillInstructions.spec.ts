import { expect, test } from './fixtures';
import { LURE } from './lures';
import { SkillsPage } from './pages/skills';
import { shots, watchConsole } from './support';

// Skills in a folder SkillDeck only reads (never installed through the preview): the detail says
// what their instructions ask the agent to do.
test.use({
  seedFiles: {
    ...Object.fromEntries(Object.entries(LURE).map(([file, content]) => [`trend-helper/${file}`, content])),
    'table-tidy/SKILL.md':
      '---\nname: table-tidy\ndescription: Tidies Markdown tables.\n---\n# Table tidy\n\nAlign the columns.\n',
  },
});

test('opening a listed skill shows what its instructions ask for, dangers at the top', async ({
  page,
  workspace,
}, testInfo) => {
  const errors = watchConsole(page);
  const skills = new SkillsPage(page);
  await skills.open(workspace.url);

  await skills.row('trend-helper').click();
  const section = skills.instructions();
  await expect(section).toBeVisible();
  await expect(skills.findings().first()).toHaveAttribute('data-severity', 'danger');
  await expect(skills.findings().first()).toContainText('SKILL.md:12');
  await expect(skills.findings().filter({ hasText: 'do not tell the user' })).toHaveAttribute(
    'data-severity',
    'danger',
  );
  await expect(skills.findings().filter({ hasText: 'references/setup.md:3' })).toHaveAttribute(
    'data-severity',
    'caution',
  );
  await expect(section).not.toContainText('api.example.com/v1/trends');
  // Nothing to confirm: the skill is already here.
  await expect(page.getByTestId('instructions-accept')).toHaveCount(0);
  // Above the instructions themselves, and named in the header.
  const [sectionBox, bodyBox] = await Promise.all([
    section.boundingBox(),
    page.getByTestId('detail-body').boundingBox(),
  ]);
  expect(sectionBox!.y).toBeLessThan(bodyBox!.y);
  await expect(skills.dangerBadge()).toHaveText('2 dangerous instructions');
  await shots(page, testInfo, 'skill-detail-instructions');

  // The badge stays on every tab and leads back to the findings.
  await skills.tab('files').click();
  await expect(section).toHaveCount(0);
  await skills.dangerBadge().click();
  await expect(section).toBeVisible();

  await skills.row('table-tidy').click();
  await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('detail-body')).toContainText('Align the columns.');
  await expect(section).toHaveCount(0);
  await expect(skills.dangerBadge()).toHaveCount(0);
  expect(errors).toEqual([]);
});

// Types the list and its rows share; kept apart so neither module imports the other for them.

/** How a changed example is opened: the two versions in the diff editor, or the example in its editor. */
export type OpenHow = 'diff' | 'edit';

import { configure } from '@testing-library/react';

// Route modules load lazily (as in the browser), and the first import of a screen is transformed on
// demand: on a busy CI machine that alone can pass testing-library's 1 s default for findBy* queries.
configure({ asyncUtilTimeout: 5000 });

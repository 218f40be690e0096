# A job that holds the caller's output gets the error alone: the driver
# drops the leak an error already covers (dropSubsumed).
npm run dev & # want SG1001 "keeps the caller's stdout"

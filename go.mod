module github.com/damaengine/damaengine

go 1.26

/* The plain-array interface of delaunay.c; src/lib.rs mirrors these structs with #[repr(C)]. */
#ifndef SCHEDLAB_DELAUNAY_H
#define SCHEDLAB_DELAUNAY_H

#define SCHEDLAB_QHULL_OK 0
#define SCHEDLAB_QHULL_ERROR 1

/* One lower Delaunay facet. Counts are -1 where Qhull's set is missing; only the first four
 * vertices and neighbours are stored. */
typedef struct {
    unsigned int id;
    int vertex_count;
    int vertices[4];
    int neighbor_count;
    unsigned int neighbors[4];
    int has_normal;
    double normal[4];
    double offset;
} schedlab_facet_t;

typedef struct {
    int count;
    int hull_dim;
    schedlab_facet_t *facets;
    char message[1024];
} schedlab_delaunay3_t;

/* Triangulates `num_points` points (x, y, z each) with scipy's options. Returns
 * SCHEDLAB_QHULL_OK with `out->facets` allocated (free it with schedlab_delaunay3_free), or
 * SCHEDLAB_QHULL_ERROR with Qhull's message in `out->message`. */
int schedlab_delaunay3(double *coords, int num_points, schedlab_delaunay3_t *out);

void schedlab_delaunay3_free(schedlab_delaunay3_t *out);

#endif
